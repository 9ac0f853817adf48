// Runs before first paint so a dark theme never flashes light. A file, not an inline script,
// so a strict Content-Security-Policy (script-src 'self') allows it. Mirrors src/features/theme.
(() => {
  let preference = 'system';
  try {
    preference = localStorage.getItem('theme') || 'system';
  } catch {}
  const dark =
    preference === 'dark' ||
    (preference !== 'light' && window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
})();
