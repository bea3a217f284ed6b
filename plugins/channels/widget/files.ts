/** Why a file can't be sent, before uploading it (the server checks again, by content). */
export type FileProblem = 'too-large' | 'type-refused' | null;

/** Whether a mime type matches one of the connection's patterns (`image/*`, `application/pdf`). */
export function typeAccepted(type: string, patterns: readonly string[]): boolean {
  const mime = type.toLowerCase();
  return patterns.some((pattern) => {
    const wanted = pattern.toLowerCase().trim();
    return wanted.endsWith('/*') ? mime.startsWith(wanted.slice(0, -1)) : mime === wanted;
  });
}

export function fileProblem(
  file: { size: number; type: string },
  maxFileSize: number,
  acceptedTypes: readonly string[],
): FileProblem {
  if (file.size > maxFileSize) return 'too-large';
  // a file the browser can't type (no extension it knows) is left to the server's check by content
  if (file.type && acceptedTypes.length > 0 && !typeAccepted(file.type, acceptedTypes)) return 'type-refused';
  return null;
}

/** `16777216` → `16 MB`, `524288` → `512 KB` (one decimal when needed). */
export function fileSize(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  if (megabytes >= 1) return `${Number.isInteger(megabytes) ? megabytes : megabytes.toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}
