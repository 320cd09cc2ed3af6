import { FailureThrottle } from "@/lib/auth/throttle";

const globalForThrottle = globalThis as unknown as { __geoscopeDeviceThrottle?: FailureThrottle };

/** Five wrong device codes in fifteen minutes lock a person out of the lookup for the rest of the window. */
export const deviceCodeThrottle = (globalForThrottle.__geoscopeDeviceThrottle ??= new FailureThrottle(5, 15 * 60 * 1000));
