/** A folder of a checkpoint directory, built from its files' `/`-separated paths. */
export interface FileTreeNode<F> {
  readonly name: string
  readonly path: string
  readonly folders: FileTreeNode<F>[]
  readonly files: { readonly name: string; readonly file: F }[]
}

/** Builds a folder tree from flat paths; folders and files are sorted by name. */
export function fileTree<F extends { readonly path: string }>(
  files: readonly F[],
): FileTreeNode<F> {
  const root: FileTreeNode<F> = { name: '', path: '', folders: [], files: [] }
  for (const file of files) {
    const parts = file.path.split('/')
    let node = root
    for (const part of parts.slice(0, -1)) {
      let next = node.folders.find((f) => f.name === part)
      if (!next) {
        next = {
          name: part,
          path: node.path ? `${node.path}/${part}` : part,
          folders: [],
          files: [],
        }
        node.folders.push(next)
      }
      node = next
    }
    node.files.push({ name: parts.at(-1) ?? file.path, file })
  }
  const sort = (node: FileTreeNode<F>) => {
    node.folders.sort((a, b) => a.name.localeCompare(b.name))
    node.files.sort((a, b) => a.name.localeCompare(b.name))
    node.folders.forEach(sort)
  }
  sort(root)
  return root
}
