import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import { en, type MessageKey } from "./en";
import { ko } from "./ko";

export type Language = "en" | "ko";
export const LANGUAGES: Language[] = ["ko", "en"];
const DICTIONARIES: Record<Language, Record<MessageKey, string>> = { en, ko };
const STORAGE_KEY = "gshare.language";

export interface Translate {
  (key: MessageKey, vars?: Record<string, string | number>): string;
  has(key: string): key is MessageKey;
  language: Language;
}

/** The browser's preferred language unless the user picked one in the console. */
export function detectLanguage(stored: string | null, preferred: readonly string[]): Language {
  if (stored === "en" || stored === "ko") return stored;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split("-")[0];
    if (base === "ko" || base === "en") return base;
  }
  return "en";
}

export function makeTranslate(language: Language): Translate {
  const dict = DICTIONARIES[language];
  const t = ((key: MessageKey, vars?: Record<string, string | number>) => {
    const text = dict[key] ?? en[key] ?? key;
    if (!vars) return text;
    return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
  }) as Translate;
  t.has = (key: string): key is MessageKey => key in dict;
  t.language = language;
  return t;
}

/** The message `key` with `vars`, or null when there is no such message or `vars` lacks one of
 * its `{placeholders}` (a sentence said from a server's typed numbers, never half-filled). */
export function fillMessage(t: Translate, key: string, vars: Record<string, string | number>): string | null {
  if (!t.has(key)) return null;
  const text = t(key);
  for (const m of text.matchAll(/\{(\w+)\}/g)) if (!(m[1] in vars)) return null;
  return t(key, vars);
}

interface I18nValue {
  t: Translate;
  language: Language;
  setLanguage(l: Language): void;
}

const I18nContext = createContext<I18nValue>({
  t: makeTranslate("en"),
  language: "en",
  setLanguage: () => undefined,
});

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLang] = useState<Language>(() =>
    detectLanguage(readStored(), navigator.languages ?? [navigator.language]),
  );
  const setLanguage = useCallback((l: Language) => {
    setLang(l);
    try {
      localStorage.setItem(STORAGE_KEY, l);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
  }, []);
  const value = useMemo(() => {
    document.documentElement.lang = language;
    return { t: makeTranslate(language), language, setLanguage };
  }, [language, setLanguage]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export const useT = () => useContext(I18nContext).t;
export const useLanguage = () => useContext(I18nContext);
