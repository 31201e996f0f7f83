// One generation (one core, baseline), then an up-to-date check, then a skip; then one with the locality policy.
def out = new File(basedir, 'target/baseline')
assert new File(out, 'core_0.c').isFile()
assert !new File(out, 'core_1.c').exists() : 'cores = 1'
def log = new File(basedir, 'build.log').text
assert log.count('1 core, strategy baseline') == 1 : 'generated exactly once'
assert log.contains('inputs unchanged since the last generation')
assert log.contains('cacheflow: skipped (skip = true)')
assert log.contains('policy=locality') : 'the policy parameter reaches the goal'
assert new File(basedir, 'target/locality/core_1.c').isFile()
assert log.count('2 cores, locality mapping, strategy baseline') == 1 : 'generated with the locality policy'
return true
