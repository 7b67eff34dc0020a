/* class_screen.c - the student's and the teacher's screens of a class. */
#include "class_main.h"
#include "cli.h"

int class_join(const char *code, const char *socket_path, int argc, char **argv)
{
    (void)code, (void)socket_path, (void)argc, (void)argv;
    cli_error("class join is not written yet");
    return 1;
}

int class_teach(const char *code, const char *socket_path, int argc, char **argv)
{
    (void)code, (void)socket_path, (void)argc, (void)argv;
    cli_error("class teach is not written yet");
    return 1;
}
