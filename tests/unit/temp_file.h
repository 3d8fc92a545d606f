/* A helper shared by the unit tests that need an input file on disk. */
#ifndef ATTN_TEST_TEMP_FILE_H
#define ATTN_TEST_TEMP_FILE_H
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write text to a fresh temporary file and return its path (static buffer). */
static const char *temp_file(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/attn-test-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    return path;
}

#endif
