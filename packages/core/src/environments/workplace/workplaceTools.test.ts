// Longer than ~400 lines on purpose: one reference case per Workplace tool, kept together so the
// tool catalogue and its expected answers read side by side.
import { describe, expect, it } from 'vitest'
import { pyFloat } from '../pyjson/pyValues.ts'
import { nodeDigest } from '../../adapters/nodeDigest.ts'
import { loadNodeWorkplaceData } from '../../adapters/nodeWorkplaceData.ts'
import type { JsonValue } from '../../json.ts'
import { routeToolCall } from './routeToolCall.ts'
import { parseWorkplaceBase } from './WorkplaceData.ts'
import type { WorkplaceSession } from './WorkplaceSession.ts'
import { freshSession, sessionTables } from './WorkplaceSession.ts'
import { WORKPLACE_TOOLS } from './workplaceTools.ts'
import { compilePyRegex } from './pyRegex.ts'

const base = parseWorkplaceBase(loadNodeWorkplaceData(), nodeDigest)

/**
 * Runs calls in order on one session with route semantics; returns the outputs and final session.
 */
function run(
  calls: [string, Record<string, JsonValue>][],
  start: WorkplaceSession = freshSession(base),
) {
  let session = start
  const outputs: JsonValue[] = []
  for (const [name, args] of calls) {
    const r = routeToolCall(base, session, name, args)
    session = r.session
    outputs.push(r.output)
  }
  return { outputs, session }
}
/** One tool's output as plain JSON (Python floats read as numbers). */
const one = (name: string, args: Record<string, JsonValue> = {}) =>
  JSON.parse(JSON.stringify(run([[name, args]]).outputs[0])) as JsonValue

describe('[wa-tools] the 27 tools', () => {
  it('registers exactly the 27 schema names, in schema order per toolkit', () => {
    const schemaNames = base.toolSchemas.map((s) => (s as { name: string }).name).sort()
    expect([...WORKPLACE_TOOLS.keys()].sort()).toEqual(schemaNames)
    expect(WORKPLACE_TOOLS.size).toBe(27)
  })

  it('[wa-route] unknown tools, unexpected keywords and dropped nulls follow the route', () => {
    expect(one('foo')).toBe("Error executing tool 'foo': 'foo'")
    expect(
      one('email_get_email_information_by_id', { email_id: '00000057', useless_argument: 1 }),
    ).toBe(
      "Error executing tool 'email_get_email_information_by_id': EmailTool.get_email_information_by_id() got an unexpected keyword argument 'useless_argument'",
    )
    // notes: null is dropped, so the default "" is stored
    const r = run([
      [
        'customer_relationship_manager_add_customer',
        { customer_name: 'A', assigned_to_email: 'X@Y.com', status: 'Lead', notes: null },
      ],
    ])
    expect(r.outputs[0]).toBe('00000200')
    const crm = r.session.tables.crm_data
    expect(crm.rows.at(-1)).toEqual([
      '00000200',
      'x@y.com',
      'A',
      null,
      null,
      null,
      null,
      'Lead',
      null,
      '',
    ])
    expect(crm.labels.at(-1)).toBe(200)
  })

  it('company_directory_find_email_address: regex, case-insensitive, errors', () => {
    expect(one('company_directory_find_email_address', { name: 'PATEL' })).toEqual([
      'anaya.patel@atlas.com',
      'raj.patel@atlas.com',
    ])
    expect(one('company_directory_find_email_address', { name: 'a.c' })).toContain(
      'aisha.chen@atlas.com',
    )
    expect(one('company_directory_find_email_address', { name: '' })).toBe('Name not provided.')
    expect(one('company_directory_find_email_address', { name: 'zzzz' })).toEqual([])
    expect(one('company_directory_find_email_address', { name: '(' })).toBe(
      "Error executing tool 'company_directory_find_email_address': missing ), unterminated subpattern at position 0",
    )
  })

  it('email tools: read, search, send, reply, forward, delete', () => {
    expect(
      one('email_get_email_information_by_id', { email_id: '00000057', field: 'subject' }),
    ).toEqual({ subject: 'Task Update on Develop prototype for report generation' })
    expect(one('email_get_email_information_by_id', {})).toBe('Email ID not provided.')
    expect(one('email_get_email_information_by_id', { email_id: '00000057' })).toBe(
      'Field not provided.',
    )
    expect(one('email_get_email_information_by_id', { email_id: '00000057', field: 'x' })).toBe(
      "Field 'x' not found. Available fields: email_id, inbox/outbox, sender/recipient, subject, sent_datetime, body",
    )
    expect(one('email_get_email_information_by_id', { email_id: '1', field: 'body' })).toBe(
      'Email not found.',
    )
    const search = one('email_search_emails', { query: 'prototype', page_size: 2 }) as {
      emails: { sent_datetime: string }[]
      pagination: JsonValue
    }
    expect(search.emails).toHaveLength(2)
    expect(search.emails[0]!.sent_datetime >= search.emails[1]!.sent_datetime).toBe(true)
    expect(one('email_search_emails', { query: 'qwertyuiop' })).toBe('No emails found.')
    expect(one('email_search_emails', { date_min: 'garbage' })).toBe(
      'Error searching emails: Unknown datetime string format, unable to parse: garbage',
    )
    expect(one('email_search_emails', { page_size: 0 })).toBe(
      'Error searching emails: integer division or modulo by zero',
    )
    const dated = one('email_search_emails', {
      date_min: '2023-11-30',
      date_max: '2023-11-30',
      page_size: 100,
    }) as { emails: { sent_datetime: string }[] }
    expect(dated.emails.every((e) => e.sent_datetime.startsWith('2023-11-30'))).toBe(true)
    expect(one('email_send_email', { recipient: 'a@b.com' })).toBe(
      'Recipient, subject, or body not provided.',
    )
    expect(one('email_send_email', { recipient: 'ab.com', subject: 's', body: 'b' })).toBe(
      'Invalid recipient email address.',
    )
    const r = run([
      ['email_send_email', { recipient: 'A@B.com', subject: 's', body: 'b' }],
      ['email_reply_email', { email_id: '00000057', body: 'Thanks' }],
      ['email_forward_email', { email_id: '00000057', recipient: 'X@Y.com' }],
      ['email_delete_email', { email_id: '500' }],
      ['email_delete_email', { email_id: '500' }],
      ['email_reply_email', { email_id: '9' }],
      ['email_forward_email', { email_id: '00000057', recipient: 'bad' }],
      ['email_forward_email', { email_id: 'nope', recipient: 'a@b.c' }],
    ])
    expect(r.outputs).toEqual([
      'Email sent successfully.',
      'Email replied successfully.',
      'Email forwarded successfully.',
      'Email deleted successfully.',
      'Email not found.',
      'Email ID or body not provided.',
      'Invalid recipient email address.',
      'Email not found.',
    ])
    const emails = r.session.tables.emails
    expect(emails.rows.map((row) => row[0]).slice(-2)).toEqual(['501', '502'])
    expect(emails.rows.at(-2)).toEqual([
      '501',
      'outbox',
      'carlos.rodriguez@atlas.com',
      'RE: Task Update on Develop prototype for report generation',
      '2023-11-30 23:59:00',
      'Thanks',
    ])
    expect(emails.rows.at(-1)?.slice(1, 4)).toEqual([
      'outbox',
      'x@y.com',
      'FW: Task Update on Develop prototype for report generation',
    ])
    // send relabels 0..n-1; the delete of "500" (label 500) then leaves a gap
    expect(emails.labels.slice(-3)).toEqual([499, 501, 502])
  })

  it('calendar tools: read, search, create (label 0), update, delete and validation', () => {
    expect(
      one('calendar_get_event_information_by_id', { event_id: '00000252', field: 'event_name' }),
    ).toEqual({ event_name: 'brainstorming session' })
    expect(
      one('calendar_get_event_information_by_id', { event_id: '252', field: 'event_name' }),
    ).toBe('Invalid event ID format. Expected 8-digit ID.')
    expect(one('calendar_get_event_information_by_id', { event_id: '00000252', field: 'x' })).toBe(
      'Invalid field. Available fields are: event_id, event_name, participant_email, event_start, duration',
    )
    expect(
      one('calendar_get_event_information_by_id', { event_id: '00000999', field: 'duration' }),
    ).toBe('Event not found.')
    expect(one('calendar_search_events', { time_min: 'bad' })).toBe(
      'Invalid time_min format. Expected YYYY-MM-DD HH:MM:SS.',
    )
    expect(one('calendar_search_events', { time_max: 'bad' })).toBe(
      'Invalid time_max format. Expected YYYY-MM-DD HH:MM:SS.',
    )
    expect(one('calendar_search_events', { query: 'zzzzzz' })).toBe('No events found.')
    expect(String(one('calendar_search_events', { page_size: 0 }))).toMatch(
      /^Error executing tool 'calendar_search_events': /,
    )
    const page = one('calendar_search_events', { query: '', page: 99, page_size: 4 }) as {
      pagination: JsonValue
      events: unknown[]
    }
    expect(page.pagination).toEqual({ total_events: 300, page: 75, page_size: 4, total_pages: 75 })
    expect(one('calendar_create_event', { event_name: 'x' })).toBe(
      'Participant email not provided.',
    )
    expect(
      one('calendar_create_event', {
        event_name: 'x',
        participant_email: 'a@b.c',
        event_start: 'nope',
        duration: '60',
      }),
    ).toBe('Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.')
    expect(
      one('calendar_create_event', {
        event_name: 'x',
        participant_email: 'a@b.c',
        event_start: '2023-12-01 10:00:00',
        duration: 'long',
      }),
    ).toBe('Invalid duration format. Expected a number of minutes.')
    expect(
      one('calendar_create_event', {
        event_name: 'x',
        participant_email: 'a@b.c',
        event_start: '2023-12-01 10:00:00',
        duration: '-5',
      }),
    ).toBe('Duration must be a positive number of minutes.')
    const r = run([
      [
        'calendar_create_event',
        {
          event_name: 'x',
          participant_email: 'A@B.c',
          event_start: '2023-12-01 10:00:00',
          duration: 60,
        },
      ],
      [
        'calendar_update_event',
        { event_id: '00000300', field: 'participant_email', new_value: 'Q@W.e' },
      ],
      ['calendar_update_event', { event_id: '00000300', field: 'event_id', new_value: '1' }],
      ['calendar_delete_event', { event_id: '00000000' }],
      ['calendar_delete_event', { event_id: '00000000' }],
      ['calendar_update_event', { event_id: '00000300' }],
    ])
    expect(r.outputs).toEqual([
      '00000300',
      'Event updated successfully.',
      'Invalid field. Available fields are: event_name, participant_email, event_start, duration',
      'Event deleted successfully.',
      'Event not found.',
      'Event ID, field, or new value not provided.',
    ])
    const cal = r.session.tables.calendar_events
    expect(cal.labels.at(-1)).toBe(0)
    expect(cal.rows.at(-1)).toEqual(['00000300', 'x', 'q@w.e', '2023-12-01 10:00:00', 60])
  })

  it('analytics tools: visitor, counts, averages, plots, and the float side effect', () => {
    expect(one('analytics_get_visitor_information_by_id', { visitor_id: '0860' })).toEqual([
      {
        date_of_visit: '2023-10-22',
        visitor_id: '0860',
        page_views: '8',
        session_duration_seconds: '4',
        traffic_source: 'referral',
        user_engaged: false,
      },
    ])
    expect(one('analytics_get_visitor_information_by_id', {})).toBe('Visitor ID not provided.')
    expect(one('analytics_get_visitor_information_by_id', { visitor_id: 'x' })).toBe(
      'Visitor not found.',
    )
    expect(one('analytics_get_average_session_duration', { time_min: '2023-11-29' })).toEqual({
      '2023-11-29': 20.666666666666668,
      '2023-11-30': 18.142857142857142,
    })
    const total = one('analytics_total_visits_count', {}) as Record<string, number>
    expect(Object.values(total).reduce((a, b) => a + b, 0)).toBe(1000)
    expect(Object.keys(total)).toHaveLength(91)
    const engaged = one('analytics_engaged_users_count', {}) as Record<string, number>
    expect(Object.values(engaged).reduce((a, b) => a + b, 0)).toBe(485)
    const direct = one('analytics_traffic_source_count', {
      time_min: '2023-11-30',
      traffic_source: 'direct',
    }) as Record<string, number>
    expect(Object.keys(direct)).toEqual(['2023-11-30'])
    expect(one('analytics_traffic_source_count', { time_min: '2023-11-30' })).toEqual(
      one('analytics_total_visits_count', { time_min: '2023-11-30' }),
    )
    expect(one('analytics_create_plot', {})).toBe('Start date not provided.')
    expect(one('analytics_create_plot', { time_min: 'a' })).toBe('End date not provided.')
    expect(one('analytics_create_plot', { time_min: 'a', time_max: 'b', value_to_plot: 'x' })).toBe(
      "Value to plot must be one of 'total_visits', 'session_duration_seconds', 'user_engaged', 'visits_direct', 'visits_referral', 'visits_search_engine', 'visits_social_media'",
    )
    expect(
      one('analytics_create_plot', {
        time_min: 'a',
        time_max: 'b',
        value_to_plot: 'total_visits',
        plot_type: 'pie',
      }),
    ).toBe("Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'")
    const r = run([
      [
        'analytics_create_plot',
        {
          time_min: '2023-11-01',
          time_max: '2023-11-30',
          value_to_plot: 'total_visits',
          plot_type: 'bar',
        },
      ],
      [
        'analytics_create_plot',
        {
          time_min: '2023-11-01',
          time_max: '2023-11-30',
          value_to_plot: 'total_visits',
          plot_type: 'bar',
        },
      ],
      ['analytics_get_average_session_duration', {}],
      ['analytics_get_visitor_information_by_id', { visitor_id: '0860' }],
    ])
    expect(r.outputs[0]).toBe('plots/2023-11-01_2023-11-30_total_visits_bar.png')
    expect(r.session.tables.plots_data.labels).toEqual([0, 1])
    expect(
      (r.outputs[3] as { session_duration_seconds: JsonValue }[])[0]?.session_duration_seconds,
    ).toEqual(pyFloat(4))
    expect(r.session.sessionDurationFloat).toBe(true)
    expect(sessionTables(base, r.session).analytics_data).toBe(base.analyticsFloat)
  })

  it('project management tools: read, search, create, update, delete and validation', () => {
    expect(
      one('project_management_get_task_information_by_id', {
        task_id: '00000149',
        field: 'task_name',
      }),
    ).toEqual({ task_name: 'Add animation to carousel' })
    expect(
      one('project_management_get_task_information_by_id', { task_id: '00000149', field: 'x' }),
    ).toBe('Field not found.')
    expect(one('project_management_get_task_information_by_id', { task_id: 'x', field: 'x' })).toBe(
      'Task not found.',
    )
    expect(one('project_management_get_task_information_by_id', { task_id: 'x' })).toBe(
      'Field not provided.',
    )
    expect(one('project_management_search_tasks', {})).toBe('No search parameters provided.')
    expect(one('project_management_search_tasks', { assigned_to_email: 'nope' })).toBe(
      'Invalid email format for assigned_to_email.',
    )
    const found = one('project_management_search_tasks', {
      assigned_to_email: 'LEILA.AZIZI@atlas.com',
      board: 'front',
    }) as { assigned_to_email: string; board: string }[]
    expect(found.length).toBeGreaterThan(0)
    expect(
      found.every(
        (t) => t.assigned_to_email === 'leila.azizi@atlas.com' && t.board === 'Front end',
      ),
    ).toBe(true)
    expect(one('project_management_create_task', { task_name: 'x' })).toBe('Missing task details.')
    const full = {
      task_name: 'T',
      assigned_to_email: 'Leila.Azizi@atlas.com',
      list_name: 'Backlog',
      due_date: '2023-12-01',
      board: 'Design',
    }
    expect(one('project_management_create_task', { ...full, assigned_to_email: 'x@y.com' })).toBe(
      'Assignee email not valid. Please choose from the list of team members.',
    )
    expect(one('project_management_create_task', { ...full, list_name: 'backlog' })).toBe(
      "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.",
    )
    expect(one('project_management_create_task', { ...full, board: 'x' })).toBe(
      "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.",
    )
    const r = run([
      ['project_management_delete_task', { task_id: '00000149' }],
      ['project_management_create_task', full],
      [
        'project_management_update_task',
        { task_id: '00000300', field: 'list_name', new_value: 'Done' },
      ],
      [
        'project_management_update_task',
        { task_id: '00000300', field: 'list_name', new_value: 'Completed' },
      ],
      ['project_management_update_task', { task_id: '00000300', field: 'nope', new_value: 'x' }],
      [
        'project_management_update_task',
        { task_id: '99999999', field: 'task_name', new_value: 'x' },
      ],
      ['project_management_delete_task', { task_id: '00000149' }],
      ['project_management_delete_task', {}],
    ])
    expect(r.outputs).toEqual([
      'Task deleted successfully.',
      '00000300',
      "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.",
      'Task updated successfully.',
      'Field not valid.',
      'Task not found.',
      'Task not found.',
      'Task ID not provided.',
    ])
    const tasks = r.session.tables.project_tasks
    expect(tasks.labels).toEqual(tasks.rows.map((_, i) => i))
    expect(tasks.rows.at(-1)).toEqual([
      '00000300',
      'T',
      'leila.azizi@atlas.com',
      'Completed',
      '2023-12-01',
      'Design',
    ])
  })

  it('CRM tools: search with pagination and date bounds, update, add, delete', () => {
    expect(one('customer_relationship_manager_search_customers', {})).toBe(
      'No search parameters provided. Please provide at least one parameter.',
    )
    const res = one('customer_relationship_manager_search_customers', {
      customer_name: 'taylor jackson',
      page_size: 1,
    }) as { customers: Record<string, JsonValue>[]; pagination: JsonValue }
    expect(res.customers[0]).toMatchObject({ customer_id: '00000189', customer_phone: null })
    expect(res.pagination).toEqual({ total_customers: 1, page: 1, page_size: 1, total_pages: 1 })
    const before = one('customer_relationship_manager_search_customers', {
      last_contact_date_max: '2023-11-02',
    }) as { customers: { last_contact_date: string }[] }
    expect(before.customers.every((c) => c.last_contact_date < '2023-11-02')).toBe(true)
    expect(one('customer_relationship_manager_search_customers', { customer_name: 'zzzz' })).toBe(
      'No customers found.',
    )
    expect(
      one('customer_relationship_manager_update_customer', {
        customer_id: '00000189',
        field: 'status',
        new_value: 'lost',
      }),
    ).toBe("Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'")
    expect(
      one('customer_relationship_manager_update_customer', {
        customer_id: '00000189',
        field: 'product_interest',
        new_value: 'x',
      }),
    ).toBe(
      "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'",
    )
    expect(
      one('customer_relationship_manager_update_customer', {
        customer_id: '00000189',
        field: 'x',
        new_value: 'x',
      }),
    ).toBe(
      "Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'",
    )
    expect(
      one('customer_relationship_manager_update_customer', {
        customer_id: 'x',
        field: 'notes',
        new_value: 'x',
      }),
    ).toBe('Customer not found.')
    expect(one('customer_relationship_manager_update_customer', { customer_id: 'x' })).toBe(
      'Customer ID, field, or new value not provided.',
    )
    expect(one('customer_relationship_manager_add_customer', { customer_name: 'x' })).toBe(
      'Please provide all required fields: customer_name, assigned_to_email, status.',
    )
    const r = run([
      [
        'customer_relationship_manager_update_customer',
        { customer_id: '00000189', field: 'assigned_to_email', new_value: 'RAJ.PATEL@atlas.com' },
      ],
      ['customer_relationship_manager_delete_customer', { customer_id: '00000107' }],
      ['customer_relationship_manager_delete_customer', { customer_id: '00000107' }],
      [
        'customer_relationship_manager_add_customer',
        { customer_name: 'N', assigned_to_email: 'a@b.c', status: 'Whatever' },
      ],
      ['customer_relationship_manager_search_customers', { customer_email: 'nanolabs' }],
      ['customer_relationship_manager_delete_customer', {}],
    ])
    expect(r.outputs.slice(0, 4)).toEqual([
      'Customer updated successfully.',
      'Customer deleted successfully.',
      'Customer not found.',
      '00000200',
    ])
    expect(r.outputs[4]).toBe(
      "Error executing tool 'customer_relationship_manager_search_customers': Cannot mask with non-boolean array containing NA / NaN values",
    )
    expect(r.outputs[5]).toBe('Customer ID not provided.')
    expect(r.session.tables.crm_data.rows[0]?.[1]).toBe('raj.patel@atlas.com')
  })

  it('[wa-cow] tools never mutate the session they are given or the base tables', () => {
    const start = freshSession(base)
    const snapshot = JSON.stringify(start)
    run(
      [
        ['email_send_email', { recipient: 'a@b.c', subject: 's', body: 'b' }],
        ['calendar_update_event', { event_id: '00000252', field: 'event_name', new_value: 'X' }],
        ['customer_relationship_manager_delete_customer', { customer_id: '00000189' }],
        ['analytics_get_average_session_duration', {}],
      ],
      start,
    )
    expect(JSON.stringify(start)).toBe(snapshot)
    expect(JSON.stringify(freshSession(base))).toBe(snapshot)
  })

  it('[wa-regex] translates Python regex syntax and rejects what Python rejects', () => {
    expect(compilePyRegex('(?P<x>ab)(?P=x)').test('ABAB')).toBe(true)
    expect(compilePyRegex('\\Aab').test('xab')).toBe(false)
    expect(() => compilePyRegex('\\e')).toThrow(/bad escape/)
    expect(() => compilePyRegex(5)).toThrow(/first argument must be string/)
  })
})
