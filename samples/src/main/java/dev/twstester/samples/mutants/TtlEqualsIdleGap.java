package dev.twstester.samples.mutants;

import java.time.Duration;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.samples.ttl.TtlSessions;

/** Bug: the click count's TTL is the idle gap (20 min), so it expires in the very batch the close fires. */
class TtlEqualsIdleGap extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the click count's TTL is the idle gap (20 min), so it expires in the very batch the close fires";

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        clicks = getHandle().getValueState("clicks", Encoders.LONG(), new TTLConfig(Duration.ofMillis(idleGapMs)));
        pages = getHandle().getListState("pages", Encoders.STRING(), new TTLConfig(TTL));
    }
}
