import type { SitemapPage, SitemapUrl } from '../../commerce/seo/sitemap.service';

const XMLNS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** `/sitemap.xml`: the sitemap index, one `<sitemap>` per page with its newest change. */
export function sitemapIndexXml(pages: SitemapPage[], baseUrl: string): string {
  const entries = pages.map(
    (page) =>
      `<sitemap><loc>${escapeXml(`${baseUrl}/sitemap-${page.kind}-${page.n}.xml`)}</loc>${lastmod(page.lastmod)}</sitemap>\n`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${XMLNS}">\n${entries.join('')}</sitemapindex>\n`;
}

/** One sitemap page, written as its URLs are read: a page of 50,000 products is never held in memory at once. */
export async function* sitemapPageXml(urls: AsyncIterable<SitemapUrl>): AsyncIterable<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${XMLNS}">\n`;
  for await (const url of urls) yield `<url><loc>${escapeXml(url.loc)}</loc>${lastmod(url.lastmod)}</url>\n`;
  yield '</urlset>\n';
}

function lastmod(date: Date | null): string {
  return date ? `<lastmod>${date.toISOString()}</lastmod>` : '';
}

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[char]!,
  );
}
