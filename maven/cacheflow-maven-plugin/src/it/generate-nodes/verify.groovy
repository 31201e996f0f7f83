// Two nodes of one core: one core file per core, the MPI transfers, CMake looking for MPI.
def out = new File(basedir, 'target/two-nodes')
assert new File(out, 'core_0.c').isFile()
assert new File(out, 'core_1.c').isFile()
assert new File(out, 'cacheflow_mpi.c').isFile() : 'a program for several nodes'
assert new File(out, 'CMakeLists.txt').text.contains('find_package(MPI')
def log = new File(basedir, 'build.log').text
assert log.contains('2 nodes x 1 core, strategy auto') : 'the nodes reached generate'
assert log.contains('sent between nodes per iteration')
return true
