// Runs after the builds of invoker.properties: the first three must have run all 6 tests, under the JUnit each
// asked for; the fourth (-Dtwstester.compareWithSpark=true) replays them on live Spark, skipping the two that force
// the watermark (advanceWatermarkTo, which Spark cannot replay).
def log = new File(basedir, 'build.log').text.replaceAll('\u001B\\[[0-9;]*m', '')
def problems = []
['5.10.3', '5.11.4', '6.1.3'].each { v ->
    if (!log.contains("JUnit Jupiter running: api ${v}, engine ${v}")) {
        problems << "no test ran under JUnit ${v}"
    }
}
def summaries = (log =~ /(?m)Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)[ \t]*$/).collect { it[0] }
def expected = ['Tests run: 6, Failures: 0, Errors: 0, Skipped: 0'] * 3 + ['Tests run: 6, Failures: 0, Errors: 0, Skipped: 2']
if (summaries.size() != 4 || (0..3).any { !summaries[it].endsWith(expected[it]) }) {
    problems << "expected four surefire summaries ${expected}, got ${summaries}"
}
if (problems) {
    throw new AssertionError('consumer project: ' + problems.join('; ') + ' (see ' + new File(basedir, 'build.log') + ')')
}
println "consumer project: 6 tests passed under each of JUnit 5.10.3, 5.11.4 and 6.1.3, and against live Spark"
return true
