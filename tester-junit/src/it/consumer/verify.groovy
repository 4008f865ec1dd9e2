// Runs after the builds of invoker.properties: the first three must have run all 6 tests, under the JUnit each
// asked for; the fourth (-Dtwstester.compareWithSpark=true) replays them on live Spark, skipping the two that force
// the watermark (advanceWatermarkTo, which Spark cannot replay). No JVM may warn about incubator modules; with
// -Dtwstester.it.deployed=URL, twstester must have come from that repository.
def log = new File(basedir, 'build.log').text.replaceAll('\u001B\\[[0-9;]*m', '')
def versions = ['5.10.3', '5.11.4', '6.1.3']
def problems = []
versions.each { v ->
    if (!log.contains("JUnit Jupiter running: api ${v}, engine ${v}")) {
        problems << "no test ran under JUnit ${v}"
    }
}
def summaries = (log =~ /(?m)Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)[ \t]*$/).collect { it[0] }
def expected = ['Tests run: 6, Failures: 0, Errors: 0, Skipped: 0'] * versions.size() + ['Tests run: 6, Failures: 0, Errors: 0, Skipped: 2']
if (summaries.size() != expected.size() || (0..<expected.size()).any { !summaries[it].endsWith(expected[it]) }) {
    problems << "expected ${expected.size()} surefire summaries ${expected}, got ${summaries}"
}
def dumps = new File(basedir, 'target/surefire-reports').listFiles()?.findAll { it.name.endsWith('.dumpstream') } ?: []
if (log.contains('Using incubator modules') || dumps.any { it.text.contains('Using incubator modules') }) {
    problems << "a JVM warned 'Using incubator modules' (spark.jvm.flags must not add jdk.incubator.vector)"
}
def deployed = binding.hasVariable('deployedRepository') ? (deployedRepository ?: '') : ''
if (deployed) {
    ['tester-junit', 'tester-core', 'twstester-parent'].each { artifact ->
        def folder = new File(localRepositoryPath, "dev/twstester/${artifact}")
        def origins = folder.exists() ? folder.listFiles().findAll { it.directory }
                .collect { new File(it, '_remote.repositories') }.findAll { it.exists() }*.text.join('\n') : ''
        if (!origins.contains('>twstester-deployed=')) {
            problems << "dev.twstester:${artifact} was not resolved from the deployed repository ${deployed} (${folder})"
        }
    }
}
if (problems) {
    throw new AssertionError('consumer project: ' + problems.join('; ') + ' (see ' + new File(basedir, 'build.log') + ')')
}
println "consumer project: 6 tests passed under each of JUnit ${versions.join(', ')}, and against live Spark" +
        (deployed ? ", with twstester resolved from ${deployed}" : '')
return true
