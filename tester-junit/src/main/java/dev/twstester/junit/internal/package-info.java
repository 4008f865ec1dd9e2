/**
 * Internal, not API: may change in any release. The recording behind {@code TestSimulator}
 * (calls, state snapshots, read outputs), the timeline text and trace files, query-source lookup,
 * strict mode and the live Spark comparison used by the {@code @TwsTest} extension.
 */
package dev.twstester.junit.internal;
