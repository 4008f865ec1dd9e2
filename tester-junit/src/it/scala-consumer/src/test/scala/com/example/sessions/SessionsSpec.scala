package com.example.sessions

import org.scalatest.funsuite.AnyFunSuite

import dev.twstester.scaladsl.ScalaSimulator
import com.example.sessions.SessionsQuery.{at, query}

class SessionsSpec extends AnyFunSuite {
  test("a session ends 30 minutes after its first view, with its pages, referrer and views") {
    val sim = ScalaSimulator.of(query)
    sim.runBatchAt(at(0), Seq(PageView("ana", "/home", at(0), Some("ad")), PageView("ana", "/cart", at(1), None)))
    assert(sim.state.value[Visit]("visit", "ana") == Some(Visit(at(0).toEpochMilli, Some("ad"))))
    assert(sim.state.list[String]("pages", "ana") == Seq("/home", "/cart"))
    assert(sim.state.timers("ana") == Seq(at(1800)))

    val run = sim.setProcessingTime(at(1800))

    assert(run.outputs == Seq(Session("ana", Seq("/home", "/cart"), Some("ad"), Map("/home" -> 1, "/cart" -> 1))))
    assert(!sim.state.hasState("ana"))
  }

  test("views of an open session add to it; another user's first view opens a session of its own") {
    val sim = ScalaSimulator.of(query)
    sim.runBatchAt(at(0), Seq(PageView("ana", "/home", at(0), None)))
    val later = sim.runBatchAt(at(600), Seq(PageView("ana", "/home", at(600), Some("mail")),
      PageView("bob", "/faq", at(601), Some("mail"))))
    assert(later.outputs.isEmpty)
    assert(sim.state.map[String, Int]("views", "ana") == Map("/home" -> 2))
    assert(sim.state.keys == Seq("ana", "bob"))

    val run = sim.setProcessingTime(at(2400))

    assert(run.firedTimers.map(_.key) == Seq("ana", "bob"))
    assert(run.outputs.toSet == Set(Session("ana", Seq("/home", "/home"), None, Map("/home" -> 2)),
      Session("bob", Seq("/faq"), Some("mail"), Map("/faq" -> 1))))
  }

  test("a session written into the state goes on with the next views; state left alone expires after an hour") {
    val sim = ScalaSimulator.of(query)
    sim.setProcessingTime(at(0))
    sim.state
      .setValue("visit", "cy", Visit(at(0).toEpochMilli, Some("news")))
      .setList("pages", "cy", Seq("/home"))
      .setMap("views", "cy", Map("/home" -> 1))
      .registerTimer("cy", at(1800))
      .setValue("visit", "dan", Visit(at(0).toEpochMilli, None))

    sim.test("cy", Seq(PageView("cy", "/home", at(30), None)))
    val run = sim.setProcessingTime(at(1800))
    assert(run.outputs == Seq(Session("cy", Seq("/home", "/home"), Some("news"), Map("/home" -> 2))))
    assert(sim.state.value[Visit]("visit", "dan") == Some(Visit(at(0).toEpochMilli, None)))

    sim.setProcessingTime(at(3601))
    assert(sim.state.value[Visit]("visit", "dan") == None)
  }
}
