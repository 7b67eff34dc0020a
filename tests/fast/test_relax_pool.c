/* test_relax_pool.c - the thread pool's measure of the machine's load
 * (relax_pool.h): how many threads fit in the cores that other programs
 * leave idle. Looks at /proc/stat as numbers, never at the clock. */
#include <criterion/criterion.h>

#include "fast/relax_pool.h"

/* Two looks 0.1 s apart (10 ticks a core) on `cores` cores: idle ticks of
 * all of them together, and this process's ticks. */
static int fits(int cores, double idle, double ours, int threads)
{
    RelaxPoolLoad before = {1000.0, 50000.0, 300.0, cores};
    RelaxPoolLoad now = {1000.0 + idle, 50000.0 + 10.0 * cores, 300.0 + ours, cores};
    return relax_pool_fits(&before, &now, threads);
}

Test(relax_pool, two_threads_fit_a_quiet_machine_whether_they_run_or_not)
{
    cr_expect_eq(fits(2, 20.0, 0.0, 2), 2, "nothing runs");
    cr_expect_eq(fits(2, 10.0, 10.0, 2), 2, "one thread of ours runs");
    cr_expect_eq(fits(2, 0.0, 20.0, 2), 2, "both of ours run: busy, but with us");
    cr_expect_eq(fits(2, 1.0, 17.5, 2), 2, "a tick's noise either way");
}

Test(relax_pool, a_core_another_program_holds_is_not_ours)
{
    cr_expect_eq(fits(2, 0.0, 10.0, 2), 1, "a spinning shell on the other core");
    cr_expect_eq(fits(2, 0.0, 13.0, 2), 1, "three of us on two cores: the shell got 0.7 of one");
    cr_expect_eq(fits(2, 7.0, 10.0, 2), 1, "another program a third busy");
    cr_expect_eq(fits(2, 0.0, 3.0, 2), 1, "a class of sandboxes: never fewer than one");
    cr_expect_eq(fits(16, 80.0, 20.0, 16), 10, "16 cores, 6 of them busy");
    cr_expect_eq(fits(16, 160.0, 0.0, 4), 4, "never more than were started");
}

Test(relax_pool, looks_too_close_together_say_nothing)
{
    RelaxPoolLoad before = {100.0, 1000.0, 10.0, 2}, now = {100.5, 1001.0, 10.5, 2};
    cr_expect_eq(relax_pool_fits(&before, &now, 2), 0);
    now = (RelaxPoolLoad){120.0, 1020.0, 10.0, 3}; /* a core came on line: not the same cores */
    cr_expect_eq(relax_pool_fits(&before, &now, 2), 0);
}

/* Looks that each fit `fits` threads, `count` of them; the choice after. */
static int looks(RelaxPoolChoice *c, int fits, int count)
{
    for (int k = 0; k < count; k++)
        relax_pool_choose(c, fits);
    return c->worth;
}

Test(relax_pool, one_thread_until_two_looks_find_the_cores_free)
{
    RelaxPoolChoice c;
    relax_pool_choice_start(&c, 2);
    cr_expect_eq(c.worth, 1, "one thread before any look");
    cr_expect_eq(looks(&c, 2, 1), 1, "one free look is not enough");
    cr_expect_eq(looks(&c, 0, 5), 1, "looks that say nothing change nothing");
    cr_expect_eq(looks(&c, 2, 1), 2, "the second free look in a row");
    cr_expect_eq(looks(&c, 1, 1), 1, "one busy look: back to one at once");
}

Test(relax_pool, each_fall_doubles_the_free_looks_wanted_up_to_64)
{
    RelaxPoolChoice c;
    relax_pool_choice_start(&c, 2);
    looks(&c, 2, 2);
    int wanted = 2;
    for (int fall = 0; fall < 8; fall++) {
        looks(&c, 1, 1);
        wanted = wanted * 2 < 64 ? wanted * 2 : 64;
        cr_expect_eq(looks(&c, 2, wanted - 1), 1, "fall %d: %d free looks are too few", fall, wanted - 1);
        cr_expect_eq(looks(&c, 2, 1), 2, "fall %d: %d free looks", fall, wanted);
    }
    cr_expect_eq(looks(&c, 1, 1), 1);
    cr_expect_eq(looks(&c, 2, 63), 1);
    looks(&c, 1, 1);
    cr_expect_eq(looks(&c, 2, 1), 1, "a busy look between free ones starts the count again");
    looks(&c, 2, 63);
    cr_expect_eq(looks(&c, 2, 64), 2, "64 looks with every thread at work");
    cr_expect_eq(looks(&c, 1, 1), 1);
    cr_expect_eq(looks(&c, 2, 4), 2, "then a fall wants 4 again, not 64");
}

Test(relax_pool, more_threads_take_the_fewest_the_free_looks_fit)
{
    RelaxPoolChoice c;
    relax_pool_choice_start(&c, 8);
    relax_pool_choose(&c, 6);
    relax_pool_choose(&c, 4);
    cr_expect_eq(c.worth, 4, "6 then 4 free: 4");
    relax_pool_choose(&c, 3);
    cr_expect_eq(c.worth, 3, "fewer at once");
}
