// Tips' public face: the Tip Artist button the profile shows on an artist's page and the
// notice on returning from Stripe Checkout. Its test-mode checkout page is a lazy route in
// app.tsx.
export { TipButton } from './tip-dialog.tsx';
export { useTipReturn } from './use-tip-return.ts';
