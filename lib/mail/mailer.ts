// Outgoing mail through SMTP (SMTP_URL). Without it nothing is sent and callers say so
// (`emailed: false`); sign-in links are then written to the server log instead.
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config/env";
import { log } from "../log";

export type Mail = { to: string; subject: string; text: string; html?: string };

let transport: Transporter | undefined;

export function mailConfigured(): boolean {
  return Boolean(config().SMTP_URL);
}

/** Sends a mail; true only when the SMTP server accepted it. */
export async function sendMail(mail: Mail): Promise<boolean> {
  const { SMTP_URL, MAIL_FROM } = config();
  if (!SMTP_URL) return false;
  transport ??= nodemailer.createTransport(SMTP_URL);
  try {
    await transport.sendMail({ from: MAIL_FROM, ...mail });
    return true;
  } catch (error) {
    log.warn("mail not sent", { to: mail.to, subject: mail.subject, error: (error as Error).message });
    return false;
  }
}
