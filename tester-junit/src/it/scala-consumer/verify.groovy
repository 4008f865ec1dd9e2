// Runs after the build of invoker.properties: each suite ran its tests (ScalaTest through its JUnit Platform
// engine, munit through the vintage engine), two of them against live Spark; scalac compiled against the
// scala-library of the build's Spark line; with -Dtwstester.it.deployed=URL, twstester came from that repository.
def log = new File(basedir, 'build.log').text.replaceAll('\u001B\\[[0-9;]*m', '')
def problems = []
def expected = ['com.example.sessions.SessionsSpec': 3, 'com.example.sessions.SessionsAgainstSparkSpec': 1,
                'com.example.sessions.SessionsSuite': 3]
expected.each { suite, count ->
    if (!(log =~ /Tests run: ${count}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: [^\n]* -- in ${suite}\b/)) {
        problems << "${suite} did not pass ${count} tests"
    }
}
if (!log.contains('Tests run: 7, Failures: 0, Errors: 0, Skipped: 0')) {
    problems << 'the surefire summary is not 7 tests, all passed'
}
def sparkVersion = (new File(basedir, 'pom.xml').text =~ /<spark\.version>([^<]+)</)[0][1]
def sparkParent = new File(localRepositoryPath, "org/apache/spark/spark-parent_2.13/${sparkVersion}/spark-parent_2.13-${sparkVersion}.pom")
def scalaVersion = sparkParent.exists() ? (sparkParent.text =~ /<scala\.version>([^<]+)</)[0][1] : null
if (scalaVersion == null) {
    problems << "no Spark ${sparkVersion} pom in ${sparkParent.parent}"
} else if (!(log =~ /(Built|Reusing cached) Scala ${java.util.regex.Pattern.quote(scalaVersion)} compiler bridge/)) {
    problems << "scalac was not the Scala ${scalaVersion} of Spark ${sparkVersion}"
}
def deployed = binding.hasVariable('deployedRepository') ? (deployedRepository ?: '') : ''
if (deployed) {
    ['tester-core', 'twstester-parent'].each { artifact ->
        def folder = new File(localRepositoryPath, "dev/twstester/${artifact}")
        def origins = folder.exists() ? folder.listFiles().findAll { it.directory }
                .collect { new File(it, '_remote.repositories') }.findAll { it.exists() }*.text.join('\n') : ''
        if (!origins.contains('>twstester-deployed=')) {
            problems << "dev.twstester:${artifact} was not resolved from the deployed repository ${deployed} (${folder})"
        }
    }
}
if (problems) {
    throw new AssertionError('Scala consumer project: ' + problems.join('; ') + ' (see ' + new File(basedir, 'build.log') + ')')
}
println "Scala consumer project: 7 tests (ScalaTest 4, munit 3; 2 against live Spark) passed on Spark ${sparkVersion}" +
        " with Scala ${scalaVersion}" + (deployed ? ", with twstester resolved from ${deployed}" : '')
return true
