package com.example.old;

import static org.junit.jupiter.api.Assertions.fail;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

/** Never runs: the extension refuses JUnit 5.9 when JUnit creates it. */
@TwsTest
class OnOldJUnitTest {
    static class Echo extends StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            return rows;
        }
    }

    static TwsQuery<String, String, String> query() {
        return TwsQuery.builder(Echo::new).keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING())
                .output(Encoders.STRING()).timeMode(TimeMode.None()).outputMode(OutputMode.Append()).build();
    }

    @Test
    void never_runs(TestSimulator<String, String, String> sim) {
        fail("the extension should have refused JUnit 5.9");
    }
}
