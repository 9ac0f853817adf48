import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import {
  applyTheme,
  isThemeStorageEvent,
  onSystemThemeChange,
  type ResolvedTheme,
  readStoredTheme,
  resolveTheme,
  storeTheme,
  type ThemePreference,
} from './theme';

interface ThemeContextValue {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
}

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [preference, setPreferenceState] = useState<ThemePreference>(readStoredTheme);
  const [resolved, setResolved] = useState<ResolvedTheme>(() => resolveTheme(preference));

  useEffect(() => {
    const sync = () => {
      const next = resolveTheme(preference);
      setResolved(next);
      applyTheme(next);
    };
    sync();
    return preference === 'system' ? onSystemThemeChange(sync) : undefined;
  }, [preference]);

  // Another tab changed the theme: follow it, so all open consoles agree.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (isThemeStorageEvent(event)) setPreferenceState(readStoredTheme());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const value = useMemo<ThemeContextValue>(
    () => ({
      preference,
      resolved,
      setPreference: (next) => {
        storeTheme(next);
        setPreferenceState(next);
      },
    }),
    [preference, resolved],
  );

  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme(): ThemeContextValue {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme must be used inside <ThemeProvider>.');
  return value;
}
