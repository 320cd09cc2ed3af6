// The Inngest client. The functions are the registered jobs (lib/work/registry.ts), adapted in
// inngest/functions/jobs.ts; the in-process local driver runs the same jobs: see lib/work/.
import { Inngest } from "inngest";

export const inngest = new Inngest({ id: "geoscope" });
