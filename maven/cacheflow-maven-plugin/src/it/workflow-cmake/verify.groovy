// The workflow generated a two-core project, CMake built it, and the program ran and validated its sinks.
def generated = new File(basedir, 'target/generated')
assert new File(generated, 'CMakeLists.txt').isFile()
assert new File(generated, 'core_1.c').isFile()
assert new File(generated, 'synthetic_actors.c').isFile() : 'the workflow asks for synthetic actors'
def log = new File(basedir, 'build.log').text
assert log.contains('2 cores, strategy auto')
assert log =~ /Display\.frame : [0-9a-f]{32}/ : 'the program printed the digest of the display FIFO'
assert log.contains('for 3 iterations')
return true
