// Words of every secret shown once (API tokens, webhook signing secrets); each feature adds its own noun.
export const secretCopyStrings = {
  copy: 'Copy',
  copied: 'Copied to the clipboard',
  copyFailed: 'The browser didn’t allow copying: the text is selected, press Ctrl+C (⌘C on a Mac).',
};
