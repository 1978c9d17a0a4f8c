/* main.c - calls the probe's target region from another file. */
int probe_region(void);

int main(void)
{
    return probe_region();
}
