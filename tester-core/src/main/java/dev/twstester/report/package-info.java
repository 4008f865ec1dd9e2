/**
 * Reports on simulator runs, built on the simulator's public {@link dev.twstester.sim.SimulatorListener}:
 * the HTML timeline page ({@link dev.twstester.report.TimelinePage}) and the key-isolation check
 * ({@link dev.twstester.report.KeyIsolationCheck}).
 */
package dev.twstester.report;
