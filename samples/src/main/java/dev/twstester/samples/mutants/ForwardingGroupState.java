package dev.twstester.samples.mutants;

import java.sql.Date;

import org.apache.spark.sql.streaming.GroupState;

import scala.Option;

/**
 * A {@link GroupState} that passes every call on to another: a legacy mutant overrides the one call
 * its bug gets wrong, and runs the correct function with it. Package-private.
 */
class ForwardingGroupState<S> implements GroupState<S> {
    private final GroupState<S> state;

    ForwardingGroupState(GroupState<S> state) {
        this.state = state;
    }

    @Override
    public boolean exists() {
        return state.exists();
    }

    @Override
    public S get() {
        return state.get();
    }

    @Override
    public Option<S> getOption() {
        return state.getOption();
    }

    @Override
    public void update(S newState) {
        state.update(newState);
    }

    @Override
    public void remove() {
        state.remove();
    }

    @Override
    public boolean hasTimedOut() {
        return state.hasTimedOut();
    }

    @Override
    public void setTimeoutDuration(long durationMs) {
        state.setTimeoutDuration(durationMs);
    }

    @Override
    public void setTimeoutDuration(String duration) {
        state.setTimeoutDuration(duration);
    }

    @Override
    public void setTimeoutTimestamp(long timestampMs) {
        state.setTimeoutTimestamp(timestampMs);
    }

    @Override
    public void setTimeoutTimestamp(long timestampMs, String additionalDuration) {
        state.setTimeoutTimestamp(timestampMs, additionalDuration);
    }

    @Override
    public void setTimeoutTimestamp(Date timestamp) {
        state.setTimeoutTimestamp(timestamp);
    }

    @Override
    public void setTimeoutTimestamp(Date timestamp, String additionalDuration) {
        state.setTimeoutTimestamp(timestamp, additionalDuration);
    }

    @Override
    public long getCurrentWatermarkMs() {
        return state.getCurrentWatermarkMs();
    }

    @Override
    public long getCurrentProcessingTimeMs() {
        return state.getCurrentProcessingTimeMs();
    }
}
