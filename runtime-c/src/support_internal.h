/* Between the parts of the generated programs' support (support.c, fault.c): not part of the installed API. */
#ifndef CF_SUPPORT_INTERNAL_H
#define CF_SUPPORT_INTERNAL_H

/* The first SIGINT or SIGTERM since cf_gen_install_signals, 0 before: a stop request, as preesmStopThreads. */
int cf_gen_stop_requested_by_signal(void);

/* At the start of core thread `core`: records the thread's core for crash reports and gives it an alternate
 * signal stack (returned, NULL when none could be set up); at its end, the stack is given back. */
void *cf_gen_core_thread_begin(int core);
void cf_gen_core_thread_end(void *stack);

/* cf_gen_sem_wait's spins before sleeping: CF_SEM_SPIN, read once (0 when unset or not a whole number); reload makes
 * the next call read the environment again (for tests). */
long cf_gen_sem_spin(void);
void cf_gen_sem_spin_reload(void);

#endif
