/**
 * Where Home shows the advertisement card to non-subscribers (spec §2, §4). The ads and
 * subscription issue fills it (get-active-ads, impression, audio, close); until then there is
 * no ad inventory and no subscription check, so it renders nothing.
 */
export function AdSlot() {
  return null;
}
