import { readdirSync, realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { notACheckpointReason, verifyCheckpoint } from '@cutover/core'
import { NodeCheckpointDirectory, nodeDigest } from '@cutover/core/adapters'
import type { CliIo } from '../process/io.ts'
import { EXIT, UsageError } from '../process/io.ts'
import { parseArgs, wantsHelp } from './parseArgs.ts'

export const VERIFY_HELP = `usage: cutover verify DIR [--json]

Checks a checkpoint directory without changing it: the global marker checkpoint.json and the
digests it names, the aggregate manifest (nemo_gym_checkpoint_manifest.json: schema, integrity
digest, every listed file), every participant namespace (model-ledger/, agent/, resources/:
schema, SHA-256 of every file, no unlisted files), the complete replacement set (resource
snapshots == agent boundaries, same revisions) and the token-store manifest. Symlinks are never
followed and always reported. A checkpoint the real NeMo-RL controller published has only the
aggregate manifest (no checkpoint.json, no token-store manifest): it is valid when everything else
is, every digest checked ("publisher": "nemo-rl"; Cutover's own: "cutover").

Options:
  --json    print exactly one JSON object: { "valid": bool, "problems": [{ "code", "path", "message" }],
            "publisher": "nemo-rl" | "cutover" }
  --help    show this help

Problem codes: missing_manifest, missing_file, unlisted_file, digest_mismatch, integrity_mismatch,
path_escape, symlink, schema_error, incomplete_set, revision_mismatch (path relative to DIR or null).

Exit status: 0 valid; 1 invalid (each problem listed); 2 usage error, DIR missing or unreadable,
or DIR not a checkpoint directory at all (none of checkpoint.json, nemo_gym_checkpoint_manifest.json,
agent/, model-ledger/, resources/, token-store/ at its top: not_a_checkpoint_directory).`

/** `cutover verify DIR [--json]` (docs/cli.md). `argv` holds the arguments after `verify`. */
export function runVerifyCommand(argv: readonly string[], io: CliIo): number {
  if (wantsHelp(argv)) {
    io.stdout(`${VERIFY_HELP}\n`)
    return EXIT.ok
  }
  let target: string | undefined
  let json: boolean
  try {
    const { switches, positionals } = parseArgs(argv, { switches: ['--json'], positionals: 1 })
    target = positionals[0]
    json = switches.has('--json')
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    io.stderr(`cutover verify: ${error.message} (see cutover verify --help)\n`)
    return EXIT.usage
  }
  if (target === undefined) {
    io.stderr('cutover verify: missing DIR (usage: cutover verify DIR [--json])\n')
    return EXIT.usage
  }
  let root = resolve(target)
  let report
  try {
    // DIR itself may be reached through a symlink; nothing below it may.
    root = realpathSync(root)
    if (!statSync(root).isDirectory()) {
      io.stderr(`cutover verify: ${root} is not a directory\n`)
      return EXIT.usage
    }
    // An empty folder is a checkpoint torn before its first write: invalid, not a usage error.
    const names = readdirSync(root)
    const reason = names.length === 0 ? null : notACheckpointReason(names)
    if (reason !== null) {
      const message = `${root} does not look like a checkpoint directory: ${reason}`
      if (json)
        io.stdout(`${JSON.stringify({ error: { code: 'not_a_checkpoint_directory', message } })}\n`)
      io.stderr(`cutover verify: not_a_checkpoint_directory: ${message}\n`)
      return EXIT.usage
    }
    report = verifyCheckpoint(new NodeCheckpointDirectory(root, { create: false }), nodeDigest)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const reason = code === 'ENOENT' ? 'no such directory' : (error as Error).message
    io.stderr(`cutover verify: cannot read ${root}: ${reason}\n`)
    return EXIT.usage
  }
  if (json) io.stdout(`${JSON.stringify(report)}\n`)
  else if (report.valid)
    io.stdout(
      `valid: ${root}${report.publisher === 'nemo-rl' ? ' (published by the NeMo-RL controller)' : ''}\n`,
    )
  else {
    const lines = report.problems.map(
      (p) => `  ${p.code.padEnd(18)} ${p.path ?? '-'}  ${p.message}`,
    )
    const count = report.problems.length
    io.stdout(`invalid: ${root} (${count} problem${count === 1 ? '' : 's'})\n${lines.join('\n')}\n`)
  }
  return report.valid ? EXIT.ok : EXIT.failure
}
