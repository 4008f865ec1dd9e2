package dev.twstester.internal

import scala.jdk.CollectionConverters._

import org.apache.spark.sql.{Encoder, Encoders}

/** A case class of two primitives: nested in the others, and a key. */
case class SPoint(x: Int, y: Long)

/** Every leaf a case class field can have: primitives, their Options, strings, bytes, times. */
case class SFlat(b: Boolean, by: Byte, s: Short, i: Int, l: Long, f: Float, d: Double, str: String,
    bin: Array[Byte], ts: java.sql.Timestamp, at: java.time.Instant, day: java.time.LocalDate,
    boxed: java.lang.Integer)

/** A grouping key: Spark orders and partitions by its fields. */
case class SKey(user: String, shard: Int, region: Option[String])

/** Options of primitives, of Options, of case classes, of collections. */
case class SOptions(a: Option[Int], b: Option[Option[String]], c: Option[SPoint], d: Option[Long],
    e: Option[Boolean], f: Option[String])

/** Case classes in case classes and in tuples. */
case class SPerson(name: String, age: Int, nickname: Option[String], home: Option[SPoint])
case class SNested(id: Long, point: SPoint, person: SPerson, pair: (String, SPoint), maybe: Option[SPerson])

/** Scala collections: Seq, List, Vector, Set, Array and Map, of atoms, Options and case classes. */
case class SCollections(tags: Seq[String], nums: List[Int], points: Vector[SPoint], ids: Set[Long],
    arr: Array[Int], byName: Map[String, SPoint], opts: Seq[Option[Int]], groups: Map[Int, Seq[String]],
    people: Array[SPerson], longs: Option[Seq[java.lang.Long]])

/** A Scala enumeration. */
object SColor extends Enumeration {
  val Red, Green, Blue = Value
}

/** Scala's big numbers and an enumeration. */
case class SNumbers(dec: BigDecimal, big: BigInt, color: SColor.Value, maybe: Option[BigDecimal], id: Long)

/** A case class defined in a class: its instances need the outer instance. */
class SOuter {
  case class SInner(a: Int)
}

/**
 * The encoders of the case classes above (Encoders.product needs a TypeTag, so Scala makes them) and
 * Scala values for Java generators: collections from Java ones, Options.
 */
object ScalaShapes {
  val flat: Encoder[SFlat] = Encoders.product[SFlat]
  val point: Encoder[SPoint] = Encoders.product[SPoint]
  val key: Encoder[SKey] = Encoders.product[SKey]
  val person: Encoder[SPerson] = Encoders.product[SPerson]
  val options: Encoder[SOptions] = Encoders.product[SOptions]
  val nested: Encoder[SNested] = Encoders.product[SNested]
  val collections: Encoder[SCollections] = Encoders.product[SCollections]
  val numbers: Encoder[SNumbers] = Encoders.product[SNumbers]
  val keyAndPoint: Encoder[(SKey, SPoint)] = Encoders.product[(SKey, SPoint)]

  def inner(outer: SOuter): Encoder[outer.SInner] = {
    org.apache.spark.sql.catalyst.encoders.OuterScopes.addOuterScope(outer)
    Encoders.product[outer.SInner]
  }

  val colors: Array[SColor.Value] = SColor.values.toArray

  def some[A](a: A): Option[A] = Some(a)
  def none[A]: Option[A] = None
  def seq[A](xs: java.util.List[A]): Seq[A] = xs.asScala.toSeq
  def list[A](xs: java.util.List[A]): List[A] = xs.asScala.toList
  def vector[A](xs: java.util.List[A]): Vector[A] = xs.asScala.toVector
  def set[A](xs: java.util.List[A]): Set[A] = xs.asScala.toSet
  def map[K, V](m: java.util.Map[K, V]): Map[K, V] = m.asScala.toMap
  def bigDecimal(d: java.math.BigDecimal): BigDecimal = BigDecimal(d)
  def bigInt(i: java.math.BigInteger): BigInt = BigInt(i)
}

/** A processor whose key, rows, output and state are case classes (ScalaCodecPropertyTest's encoderPaths()). */
class CaseClassProcessor
    extends org.apache.spark.sql.streaming.StatefulProcessor[SKey, SPoint, SPerson] {
  import org.apache.spark.sql.streaming._

  @transient private var last: ValueState[SPoint] = _
  @transient private var history: ListState[SNested] = _
  @transient private var byShard: MapState[SKey, SNumbers] = _

  override def init(outputMode: OutputMode, timeMode: TimeMode): Unit = {
    last = getHandle.getValueState[SPoint]("last", ScalaShapes.point, TTLConfig.NONE)
    history = getHandle.getListState[SNested]("history", ScalaShapes.nested, TTLConfig.NONE)
    byShard = getHandle.getMapState[SKey, SNumbers]("byShard", ScalaShapes.key, ScalaShapes.numbers, TTLConfig.NONE)
  }

  override def handleInputRows(key: SKey, rows: Iterator[SPoint], timerValues: TimerValues): Iterator[SPerson] = {
    val points = rows.toList
    val total = points.foldLeft(Option(last.get()).getOrElse(SPoint(0, 0L))) { (a, p) => SPoint(a.x + p.x, a.y + p.y) }
    last.update(total)
    Iterator(SPerson(key.user, total.x, key.region, Some(total)))
  }
}
