package com.example.sessions

import org.scalatest.funsuite.AnyFunSuite

import dev.twstester.RunComparison
import dev.twstester.scaladsl.{ScalaRun, ScalaScenario, ScalaSimulator}
import dev.twstester.spark.LiveRunner
import com.example.sessions.SessionsQuery.{at, query}

/** The same views through the simulator and through live Spark (RocksDB state store): the same batches and state. */
class SessionsAgainstSparkSpec extends AnyFunSuite {
  test("the simulator and live Spark emit the same sessions, drop an expired one and end in the same state") {
    val scenario = ScalaScenario.builder[PageView]
      .batchAt(at(0), Seq(PageView("ana", "/home", at(0), Some("ad")), PageView("bob", "/home", at(2), None)))
      .batchAt(at(900), Seq(PageView("ana", "/cart", at(900), None), PageView("ana", "/home", at(901), None)))
      .batchAt(at(1200), Seq(PageView("cy", "/faq", at(1200), Some("mail"))))
      .tick(at(1800))
      .tick(at(4801))   // cy's timer (at 3000) fires after its visit expired (written at 1200, TTL one hour)
      .build

    val sim = ScalaSimulator.of(query)
    val simulated = sim.run(scenario)
    val live = LiveRunner.of(query).runWithEndState(scenario)

    val comparison = RunComparison.simulatorVsSpark()
    comparison.assertSame(simulated.result, live.run)
    comparison.assertSameState(sim.snapshot, live.endState)
    assert(ScalaRun.of(live.run).outputs.toSet == Set(
      Session("ana", Seq("/home", "/cart", "/home"), Some("ad"), Map("/home" -> 2, "/cart" -> 1)),
      Session("bob", Seq("/home"), None, Map("/home" -> 1))))
    assert(sim.state.keys.isEmpty)
  }
}
