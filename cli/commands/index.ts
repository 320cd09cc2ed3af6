// The command table: every command of `geoscope`, by help section, one module per group. main.ts
// parses and dispatches from it, `--help` is written from it and `completion` generates from it.
import type { Section } from "../command";
import { account } from "./account";
import { audits } from "./audits";
import { billing } from "./billing";
import { citations } from "./citations";
import { compare } from "./compare";
import { fanouts } from "./fanouts";
import { keys } from "./keys";
import { monitorAlerts } from "./monitor-alerts";
import { monitorOverview } from "./monitor-overview";
import { monitorDigests } from "./monitor-digests";
import { monitorSeries } from "./monitor-series";
import { monitors } from "./monitors";
import { projects } from "./projects";
import { questions } from "./questions";
import { runs } from "./runs";
import { service } from "./service";
import { shares } from "./shares";
import { visibility } from "./visibility";
import { opportunities } from "./opportunities";
import { workspaces } from "./workspaces";

export const SECTIONS: readonly Section[] = [account, runs, audits, fanouts, monitors, monitorSeries, monitorOverview, monitorAlerts, monitorDigests, questions, citations, visibility, compare, opportunities, shares, keys, workspaces, projects, billing, service];
