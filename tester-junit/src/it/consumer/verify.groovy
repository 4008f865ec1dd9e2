// Runs after the three builds of invoker.properties: each must have run all 4 tests, under the JUnit it asked for.
def log = new File(basedir, 'build.log').text.replaceAll('\u001B\\[[0-9;]*m', '')
def problems = []
['5.10.3', '5.11.4', '6.1.3'].each { v ->
    if (!log.contains("JUnit Jupiter running: api ${v}, engine ${v}")) {
        problems << "no test ran under JUnit ${v}"
    }
}
def summaries = (log =~ /(?m)Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)[ \t]*$/).collect { it[0] }
if (summaries.size() != 3 || summaries.any { !it.endsWith('Tests run: 4, Failures: 0, Errors: 0, Skipped: 0') }) {
    problems << "expected three surefire summaries 'Tests run: 4, Failures: 0, Errors: 0, Skipped: 0', got ${summaries}"
}
if (problems) {
    throw new AssertionError('consumer project: ' + problems.join('; ') + ' (see ' + new File(basedir, 'build.log') + ')')
}
println "consumer project: 4 tests passed under each of JUnit 5.10.3, 5.11.4 and 6.1.3"
return true
