// The @TwsTest class failed with the extension's one line naming JUnit 5.9.3 and the versions supported.
def log = new File(basedir, 'build.log').text.replaceAll('\u001B\\[[0-9;]*m', '')
def expected = "org.junit.jupiter.api.extension.ExtensionConfigurationException: twstester's @TwsTest needs JUnit " +
        "Jupiter 5.10 or later (5.x and 6.x; tested with 5.10.3, 5.11.4 and 6.1.3), but junit-jupiter-api 5.9.3 is on " +
        "the test classpath; use a newer JUnit, e.g. import org.junit:junit-bom:5.11.4 (or 6.1.3) in dependencyManagement"
def problems = []
if (!log.contains(expected)) {
    problems << "no line '${expected}'"
}
if (log.contains('NoSuchMethodError') || log.contains('NoClassDefFoundError')) {
    problems << 'a NoSuchMethodError or NoClassDefFoundError'
}
if (!(log =~ /(?m)Tests run: 1, Failures: 0, Errors: 1, Skipped: 0[ \t]*$/)) {
    problems << "no surefire summary 'Tests run: 1, Failures: 0, Errors: 1, Skipped: 0'"
}
if (problems) {
    throw new AssertionError('junit-too-old: ' + problems.join('; ') + ' (see ' + new File(basedir, 'build.log') + ')')
}
println 'junit-too-old: JUnit 5.9.3 got the one-line ExtensionConfigurationException'
return true
