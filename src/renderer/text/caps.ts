/** Settings → Spending caps (the caps form of Settings.tsx). */
import { catalogue } from './catalogue';

export const CAPS_TEXT = {
  title: 'Spending caps',
  explain:
    "Above a cap, a purchase needs an extra confirmation. Raising a cap needs the wallet's passphrase; lowering one does not.",
  perPurchase: 'Per purchase (USD)',
  perDay: 'Per day (USD)',
  perPurchaseWrong: 'Per purchase: {message}',
  perDayWrong: 'Per day: {message}',
  consent: 'raise a cap',
  submit: 'Save caps',
  saved: 'Saved.',
} as const;

export const capsText = catalogue(CAPS_TEXT);
