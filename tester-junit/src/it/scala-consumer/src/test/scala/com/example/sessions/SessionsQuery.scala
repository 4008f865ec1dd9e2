package com.example.sessions

import java.time.Instant

import org.apache.spark.sql.Encoders
import org.apache.spark.sql.streaming.{OutputMode, TimeMode}

import dev.twstester.TwsQuery

/** The query the job runs, for the simulator and for live Spark; `at(s)` is `s` seconds into the test's day. */
object SessionsQuery {
  val query: TwsQuery[String, PageView, Session] = TwsQuery.builder[String, PageView, Session](() => new Sessions)
    .keyBy((view: PageView) => view.user, Encoders.STRING)
    .input(Encoders.product[PageView])
    .output(Encoders.product[Session])
    .timeMode(TimeMode.ProcessingTime())
    .outputMode(OutputMode.Update())
    .build()

  def at(second: Int): Instant = Instant.parse("2024-05-01T10:00:00Z").plusSeconds(second)
}
