import { setI18n } from 'react-i18next';
import { ensureI18n } from '../lib/i18n';

// jsdom implements no scrolling; the app calls scrollTo on every route change.
window.scrollTo = () => {};

// In the app, react-i18next is wired up when the back office loads (lib/messages.ts); component
// tests render back-office parts on their own, so they get the same wiring up front.
setI18n(ensureI18n());
