/**
 * Words as written and as a user types them without their accents and special letters: one list
 * that the folding's own test and each search engine's tests check. The last ones are scripts
 * whose letters are never spelled in Latin ones.
 */
export const FOLDING_EXAMPLES: ReadonlyArray<readonly [written: string, typed: string]> = [
  ['Kırmızı', 'kirmizi'],
  ['Łódź', 'lodz'],
  ['Øresund', 'oresund'],
  ['Đakovo', 'dakovo'],
  ['Ħamrun', 'hamrun'],
  ['Straße', 'strasse'],
  ['Æsir', 'aesir'],
  ['Œuvre', 'oeuvre'],
  ['Þingvellir', 'thingvellir'],
  ['Ðurđevac', 'durdevac'],
  ['İstanbul', 'istanbul'],
  ['Misérables', 'miserables'],
  ['ﬁnance', 'finance'],
  ['Война', 'война'],
  ['Ιλιάδα', 'ιλιαδα'],
  ['吾輩は猫である', '吾輩は猫である'],
];
