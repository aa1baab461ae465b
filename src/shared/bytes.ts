/** A file's size as people read it in the window and the CLI: megabytes to one decimal ("12.3 MB"). */
export const megabytes = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
