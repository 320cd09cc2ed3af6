// Outgoing mail through SMTP (SMTP_URL). Without it nothing is sent and callers say so
// (`emailed: false`); sign-in links are then written to the server log instead.
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config/env";
import { log } from "../log";

export type Mail = { to: string; subject: string; text: string; html?: string };

let transport: { url: string; transporter: Transporter } | undefined;

export function mailConfigured(): boolean {
  return Boolean(config().SMTP_URL);
}

/** Sends a mail; true only when the SMTP server accepted it. */
export async function sendMail(mail: Mail): Promise<boolean> {
  return (await trySendMail(mail)).sent;
}

/** Sends a mail and says why not when it was not: no SMTP_URL, or the SMTP server's error. */
export async function trySendMail(mail: Mail): Promise<{ sent: true } | { sent: false; error: string }> {
  const { SMTP_URL, MAIL_FROM } = config();
  if (!SMTP_URL) return { sent: false, error: "SMTP_URL is not set" };
  // One transport per SMTP_URL: a changed setting (tests, a reloaded config) takes effect.
  if (transport?.url !== SMTP_URL) transport = { url: SMTP_URL, transporter: nodemailer.createTransport(SMTP_URL) };
  try {
    await transport.transporter.sendMail({ from: MAIL_FROM, ...mail });
    return { sent: true };
  } catch (error) {
    log.warn("mail not sent", { to: mail.to, subject: mail.subject, error: (error as Error).message });
    return { sent: false, error: (error as Error).message };
  }
}
