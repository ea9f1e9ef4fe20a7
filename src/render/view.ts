// A View is one output format: how a plan (with its footer) and a drift report read in it. Every format is one
// file exporting one ViewFactory, listed once in views.ts (VIEWS); commands take their --format choices from it.
import type { DriftReport } from '../engine/drift.ts';
import type { Plan } from '../engine/plan-data.ts';
import type { PlanFooter } from './wording.ts';

export type { PlanFooter } from './wording.ts';

interface View {
  plan(plan: Plan, footer?: PlanFooter): string;
  drift(report: DriftReport): string;
}

interface ViewOptions {
  /** ANSI colours (a terminal, unless NO_COLOR or --no-color); formats without colour ignore it. */
  color: boolean;
}

export type ViewFactory = (opts: ViewOptions) => View;
