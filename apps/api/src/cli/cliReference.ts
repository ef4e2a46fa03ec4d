import type { CliIo } from '../process/io.ts'
import { COMMAND_NAMES, USAGE, runCli } from './main.ts'

/** What `cutover <argv>` prints on stdout (its help never starts a server). */
async function helpOf(argv: readonly string[]): Promise<string> {
  let out = ''
  const io: CliIo = { stdout: (t) => void (out += t), stderr: () => undefined }
  await runCli(argv, io)
  return out.trimEnd()
}

/**
 * docs/cli.md: the overview and every command's `--help`, word for word — generated from the help
 * texts, so the page and the CLI cannot disagree (`npm run docs:cli` writes it; a test checks it).
 */
export async function cliReferenceMarkdown(): Promise<string> {
  const sections: string[] = []
  for (const name of COMMAND_NAMES)
    sections.push(`## cutover ${name}\n\n\`\`\`text\n${await helpOf([name, '--help'])}\n\`\`\`\n`)
  return [
    '# The `cutover` command line',
    '',
    "Generated from the commands' own `--help` by `npm run docs:cli`; do not edit by hand. Run",
    '`npx cutover <command> --help` at the repository root after `npm ci` for the same text.',
    '',
    'Every command follows the same rules. Exit status: 0 success; 1 the command ran and found a',
    'failure (an invariant failed, a directory is invalid, an operation was refused); 2 a usage or',
    'input error (unknown command or option, unreadable file, malformed JSON, missing directory),',
    'with one clear line on stderr. Without `--json` the output is for people; with `--json`, stdout',
    'is exactly one JSON object. An unknown command, option, scenario, bug, environment, operation or',
    'fault kind is answered with the nearest valid name.',
    '',
    '```text',
    USAGE,
    '```',
    '',
    ...sections,
  ].join('\n')
}
