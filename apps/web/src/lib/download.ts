/** Saves text as a file through a temporary object URL (no server round trip). */
export function downloadText(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const anchor = document.createElement('a')
  anchor.href = url
  anchor.download = filename
  document.body.append(anchor)
  anchor.click()
  anchor.remove()
  // revoke after the click has been handled, or some browsers cancel the download
  window.setTimeout(() => URL.revokeObjectURL(url), 1_000)
}
