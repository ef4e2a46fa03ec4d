import type { BugName } from '../contracts/bugs.ts'
import type { ControllerTestOptions } from '../controller/Controller.ts'

/** The controller's broken behaviour for a teaching-mode bug (none for the participants' bugs). */
export function controllerBug(bug: BugName | undefined): ControllerTestOptions {
  if (bug === 'resume-agents-first') return { resumeAgentsFirst: true }
  if (bug === 'aggregate-before-resources') return { aggregateBeforeResources: true }
  if (bug === 'acks-after-prepare') return { acksAfterPrepare: true }
  return {}
}
