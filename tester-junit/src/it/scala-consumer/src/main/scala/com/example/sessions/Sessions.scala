package com.example.sessions

import java.time.{Duration, Instant}

import org.apache.spark.sql.Encoders
import org.apache.spark.sql.streaming.{ExpiredTimerInfo, ListState, MapState, OutputMode, StatefulProcessor,
  TTLConfig, TimeMode, TimerValues, ValueState}

/** A page view; `referrer` is `None` for a direct visit. */
case class PageView(user: String, page: String, ts: Instant, referrer: Option[String])

/** What an open session keeps: when it started (processing time, epoch ms) and where the user came from. */
case class Visit(startedAt: Long, referrer: Option[String])

/** A session that ended: its pages in the order seen, where it came from, and the views of each page. */
case class Session(user: String, pages: Seq[String], referrer: Option[String], views: Map[String, Int])

/**
 * Page-view sessions: a user's first view opens a session and a processing-time timer `Sessions.Length` later;
 * when it fires the session is emitted and its state cleared. State not written for an hour expires (TTL).
 * The job runs it as
 * `views.groupByKey(_.user).transformWithState(new Sessions, TimeMode.ProcessingTime(), OutputMode.Update())`.
 */
class Sessions extends StatefulProcessor[String, PageView, Session] {
  @transient private var visit: ValueState[Visit] = _
  @transient private var pages: ListState[String] = _
  @transient private var views: MapState[String, Int] = _

  override def init(outputMode: OutputMode, timeMode: TimeMode): Unit = {
    val ttl = TTLConfig(Duration.ofHours(1))
    visit = getHandle.getValueState("visit", Encoders.product[Visit], ttl)
    pages = getHandle.getListState("pages", Encoders.STRING, ttl)
    views = getHandle.getMapState("views", Encoders.STRING, Encoders.scalaInt, ttl)
  }

  override def handleInputRows(user: String, rows: Iterator[PageView], timerValues: TimerValues): Iterator[Session] = {
    val now = timerValues.getCurrentProcessingTimeInMs()
    rows.toSeq.sortBy(_.ts).foreach { view =>
      if (!visit.exists()) {
        // What an expired session left (list elements and map entries expire one by one, as Spark's TTL does)
        // and its timer do not belong to this one
        getHandle.listTimers().toList.foreach(getHandle.deleteTimer)
        pages.clear()
        views.clear()
        visit.update(Visit(now, view.referrer))
        getHandle.registerTimer(now + Sessions.Length.toMillis)
      }
      pages.appendValue(view.page)
      val seen = if (views.containsKey(view.page)) views.getValue(view.page) else 0
      views.updateValue(view.page, seen + 1)
    }
    Iterator.empty
  }

  override def handleExpiredTimer(user: String, timerValues: TimerValues,
      expiredTimerInfo: ExpiredTimerInfo): Iterator[Session] = {
    // A stopped query or a late trigger can let the clock pass the visit's TTL before its timer fires: then the
    // session expired unseen (the pages and views, written later, outlive the visit, so they are all there or not)
    val session = if (visit.exists()) {
      Iterator.single(Session(user, pages.get().toList, visit.get().referrer, views.iterator().toMap))
    } else {
      Iterator.empty
    }
    visit.clear()
    pages.clear()
    views.clear()
    session
  }
}

object Sessions {
  /** How long a session stays open after its first view. */
  val Length: Duration = Duration.ofMinutes(30)
}
