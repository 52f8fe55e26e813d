/**
 * Switching off an integration that keeps something the user typed or granted (credentials, a drive's connection and
 * folder) deletes it: the Integration screen asks first, with what is lost. The display switches and a switch being
 * turned on are not asked about.
 */
export type SwitchOffLoss = 'credentials' | 'drive';

/** What switching `name` ('FTP export', 'Google import') off loses, as the question's text. */
export function switchOffQuestion(name: string, loss: SwitchOffLoss): string {
  return loss === 'drive'
    ? `Switch ${name} off? The connection and the chosen folder are forgotten: switching it on again asks to connect and choose a folder.`
    : `Switch ${name} off? Its stored credentials are deleted: switching it on again asks for them.`;
}
