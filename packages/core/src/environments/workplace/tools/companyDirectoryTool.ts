import { pyLower } from '../python.ts'
import { pySearch } from '../pyRegex.ts'
import type { ToolDef } from './ToolDef.ts'
import { tool } from './ToolDef.ts'

/**
 * `CompanyDirectoryTool.find_email_address`: regex search (case-insensitive) over the 20 addresses.
 */
export const companyDirectoryTools: readonly ToolDef[] = [
  tool(
    'company_directory_find_email_address',
    'CompanyDirectoryTool.find_email_address',
    [['name', '']],
    (env, a) => {
      if (a['name'] === '') return 'Name not provided.'
      const name = pyLower(a['name'])
      return env.base.tables.email_addresses.rows
        .map((r) => r[0])
        .filter((addr): addr is string => typeof addr === 'string' && pySearch(name, addr))
    },
  ),
]
