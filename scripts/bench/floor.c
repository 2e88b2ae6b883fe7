/* The floor: the same APDU sequence through SCardTransmit directly, no wrapper.
 * Prints "c Q1 MEDIAN Q3" in microseconds per APDU. cc floor.c $(pkg-config --cflags --libs libpcsclite) */
#include <PCSC/winscard.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const unsigned char select_cu[] = {0x00,0xA4,0x04,0x00,0x09,0xA0,0x00,0x00,0x00,0x03,0x86,0x98,0x07,0x01,0x00};
static const unsigned char balance[] = {0x80,0x5C,0x00,0x02,0x04};

static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: floor READER N\n"); return 64; }
    int n = atoi(argv[2]);
    SCARDCONTEXT ctx; SCARDHANDLE card; DWORD proto;
    if (SCardEstablishContext(SCARD_SCOPE_SYSTEM, NULL, NULL, &ctx) != SCARD_S_SUCCESS) { fprintf(stderr, "no pcscd\n"); return 69; }
    if (SCardConnect(ctx, argv[1], SCARD_SHARE_SHARED, SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1, &card, &proto) != SCARD_S_SUCCESS) { fprintf(stderr, "connect failed\n"); return 69; }
    const SCARD_IO_REQUEST *pci = proto == SCARD_PROTOCOL_T1 ? SCARD_PCI_T1 : SCARD_PCI_T0;
    unsigned char cmds[12][16]; DWORD lens[12];
    memcpy(cmds[0], select_cu, sizeof select_cu); lens[0] = sizeof select_cu;
    memcpy(cmds[1], balance, sizeof balance); lens[1] = sizeof balance;
    for (int r = 1; r <= 10; r++) { unsigned char c[5] = {0x00, 0xB2, (unsigned char)r, 0xC4, 0x17}; memcpy(cmds[r + 1], c, 5); lens[r + 1] = 5; }
    unsigned char rbuf[MAX_BUFFER_SIZE_EXTENDED];
    double *t = malloc(sizeof(double) * n);
    for (int i = 0; i < 12; i++) { DWORD rl = sizeof rbuf; SCardTransmit(card, pci, cmds[i], lens[i], NULL, rbuf, &rl); }
    for (int i = 0; i < n; i++) {
        struct timespec a, b; DWORD rl = sizeof rbuf;
        clock_gettime(CLOCK_MONOTONIC, &a);
        LONG rv = SCardTransmit(card, pci, cmds[i % 12], lens[i % 12], NULL, rbuf, &rl);
        clock_gettime(CLOCK_MONOTONIC, &b);
        if (rv != SCARD_S_SUCCESS || rl < 2) { fprintf(stderr, "transmit failed\n"); return 74; }
        t[i] = (b.tv_sec - a.tv_sec) * 1e6 + (b.tv_nsec - a.tv_nsec) / 1e3;
    }
    qsort(t, n, sizeof(double), cmp);
    printf("c %.1f %.1f %.1f\n", t[n / 4], t[n / 2], t[n * 3 / 4]);
    SCardDisconnect(card, SCARD_LEAVE_CARD); SCardReleaseContext(ctx);
    return 0;
}
