import { useSettingsStore } from './settings-store';

/** SPEC §2: the copyright line and, once the operator has one, the public filing number. */
export function AppFooter() {
  const footerTxt = useSettingsStore((state) => state.footerTxt);
  const caseNumber = useSettingsStore((state) => state.caseNumber) || import.meta.env.VITE_CASE_NUMBER || '';
  const caseNumberUrl = useSettingsStore((state) => state.caseNumberUrl);
  return (
    <footer className="app-footer">
      <span>{footerTxt}</span>
      {caseNumber !== '' && (
        <a href={caseNumberUrl} target="_blank" rel="noreferrer">
          {caseNumber}
        </a>
      )}
    </footer>
  );
}
