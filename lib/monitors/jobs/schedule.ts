// The monitors' scheduler as a periodic task: claim due slots, hand open ticks their jobs.
import { config } from "../../config/env";
import { definePeriodic } from "../../work/periodic";
import { checkMonitors } from "../ticks";

export const monitorScheduleTask = definePeriodic({
  id: "monitor-schedule",
  cron: "* * * * *",
  everyMs: () => config().MONITOR_CHECK_SECONDS * 1000,
  run: (now) => checkMonitors(now),
});
