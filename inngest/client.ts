// The Inngest client. Work functions live one per file in inngest/functions/ and run on either
// driver (Inngest, or the in-process local driver): see lib/work/.
import { Inngest } from "inngest";

export const inngest = new Inngest({ id: "geoscope" });
