/* Dynamic parameters in generated programs: a configuration actor writes a parameter's value at run time (PREESM's
 * `OUT Param *name`), and the program runs only with the values it was planned for. */
#ifndef CACHEFLOW_DYNPARAM_H
#define CACHEFLOW_DYNPARAM_H

/* The most variants (combinations of dynamic parameter values) one program is planned for. */
#define CF_GEN_MAX_VARIANTS 64

/* The index of `value` in planned[0..count): the variant of the program planned for it. When it is none of them, stops
 * the program (exit status 1) with a message naming the configuration actor, the parameter, the value, the iteration
 * (-1: before the first) and the planned values, before any other actor sees the value. */
int cf_gen_param_check(const char *actor, const char *parameter, long long value, long iteration,
                       const long long *planned, int count);

/* A program holding several variants: the variant whose values are values[0..count) (one per dynamic parameter,
 * set by configuration actors actors[p] on parameters[p]), among the `variants` rows of planned (row v: variant v's
 * values, count each). A value that no variant has for its parameter stops the program (exit status 1) with a
 * message naming the actor, the parameter, the value, the iteration and that parameter's planned values. */
int cf_gen_variant_check(long iteration, int count, const char *const *actors, const char *const *parameters,
                         const long long *values, int variants, const long long *planned);

#endif
