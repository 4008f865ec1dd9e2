package dev.twstester.samples.cart

import java.sql.Timestamp

import org.apache.spark.api.java.function.MapFunction
import org.apache.spark.sql.{Encoder, Encoders}
import org.apache.spark.sql.streaming.{ExpiredTimerInfo, ListState, OutputMode, StatefulProcessor, TTLConfig, TimeMode, TimerValues, ValueState}

import dev.twstester.TwsQuery

/** A cart event as a Scala user writes it: [[CartEvent]]'s fields in a case class. */
case class CartEventRow(userId: String, event: String, item: String, ts: Timestamp)

/** The alert of an abandoned cart: [[CartAlert]]'s fields in a case class. */
case class CartAlertRow(userId: String, itemCount: Int, lastSeen: Timestamp)

/** The latest "add" of a cart, epoch milliseconds. */
case class LastSeen(ms: Long)

/**
 * [[CartWatch]] written in Scala: the same abandoned-cart processor, with case classes for its rows, its
 * output and its `last_seen` state, encoded with `Encoders.product`. The start-up benchmark's case-class
 * row runs it against the bean version.
 *
 * {{{
 * val sim = new TwsSimulator(CartWatchScala.query())
 * sim.runBatch(CartEventRow("ana", "add", "boots", ts))
 * }}}
 */
class CartWatchScala extends StatefulProcessor[String, CartEventRow, CartAlertRow] {
  @transient private var items: ListState[String] = _
  @transient private var lastSeen: ValueState[LastSeen] = _

  override def init(outputMode: OutputMode, timeMode: TimeMode): Unit = {
    items = getHandle.getListState[String]("items", Encoders.STRING, TTLConfig.NONE)
    lastSeen = getHandle.getValueState[LastSeen]("last_seen", CartWatchScala.lastSeenEncoder, TTLConfig.NONE)
  }

  override def handleInputRows(userId: String, events: Iterator[CartEventRow],
      timerValues: TimerValues): Iterator[CartAlertRow] = {
    events.foreach { e =>
      e.event match {
        case "add" => add(e)
        case "checkout" => checkout()
        case _ =>
      }
    }
    Iterator.empty
  }

  private def add(e: CartEventRow): Unit = {
    var eventMs = e.ts.getTime
    items.appendValue(e.item)
    if (lastSeen.exists()) {
      val previous = lastSeen.get().ms
      getHandle.deleteTimer(previous + CartWatchScala.IdleMs)
      eventMs = math.max(previous, eventMs)
    }
    lastSeen.update(LastSeen(eventMs))
    getHandle.registerTimer(eventMs + CartWatchScala.IdleMs)
  }

  private def checkout(): Unit = {
    if (lastSeen.exists()) {
      getHandle.deleteTimer(lastSeen.get().ms + CartWatchScala.IdleMs)
    }
    items.clear()
    lastSeen.clear()
  }

  override def handleExpiredTimer(userId: String, timerValues: TimerValues,
      timer: ExpiredTimerInfo): Iterator[CartAlertRow] = {
    val cart = items.get().toList
    val last = if (lastSeen.exists()) lastSeen.get().ms else timer.getExpiryTimeInMs() - CartWatchScala.IdleMs
    items.clear()
    lastSeen.clear()
    Iterator(CartAlertRow(userId, cart.size, new Timestamp(last)))
  }
}

object CartWatchScala {
  /** [[CartWatch.IDLE]]. */
  private val IdleMs: Long = java.time.Duration.ofMinutes(30).toMillis

  private val lastSeenEncoder: Encoder[LastSeen] = Encoders.product[LastSeen]

  /** The same query as [[CartWatch.query]], with the case classes' encoders. */
  def query(): TwsQuery[String, CartEventRow, CartAlertRow] =
    TwsQuery.builder[String, CartEventRow, CartAlertRow](() => new CartWatchScala)
      .keyBy((e => e.userId): MapFunction[CartEventRow, String], Encoders.STRING)
      .input(Encoders.product[CartEventRow])
      .output(Encoders.product[CartAlertRow])
      .timeMode(TimeMode.EventTime())
      .outputMode(OutputMode.Update())
      .watermark("ts", java.time.Duration.ofMinutes(10))   // CartWatch.WATERMARK_DELAY
      .build()
}
