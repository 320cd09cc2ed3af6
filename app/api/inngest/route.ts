// The Inngest serve endpoint: Inngest calls it to run the registered jobs (when INNGEST_EVENT_KEY
// or INNGEST_DEV is set; otherwise the local driver runs them in-process).
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { inngestFunctions } from "@/inngest/functions/jobs";

export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions() });
