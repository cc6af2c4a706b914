import { z } from 'zod';

/** A consultation's progress lines the person sees (its `logs` JSON column), oldest first. */
export const consultationLogs = z.array(z.object({ at: z.string(), text: z.string() }));

/** The planner's plan (its `plan` JSON column): the steps' titles. */
export const consultationPlan = z.array(z.string());

/** What the planner keeps about the case (its `context` JSON column): short facts by key. */
export const consultationContext = z.record(z.string(), z.string());
