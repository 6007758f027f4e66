import type { DeployPlatform, PublicPackage, PublicPackageVersion } from '@cloud-classroom/shared/deploy';
import { formatFileSize } from '@cloud-classroom/shared/file-size';
import type { MessageKey } from '@cloud-classroom/shared/messages';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData } from '../../../components/site/use-site-data';
import { apiUrl } from '../../../lib/http-client';
import { useLocaleText } from '../../../lib/use-locale-text';
import { useUserStore } from '../../auth/user-store';
import './download-site.css';

/** The public list (no login): each package with its latest version and the older ones. */
export const PUBLIC_DOWNLOADS_PATH = 'api/public/downloads';

const PLATFORM: Record<DeployPlatform, MessageKey> = {
  windows: 'download.platform.windows',
  macos: 'download.platform.macos',
  linux: 'download.platform.linux',
  android: 'download.platform.android',
  ios: 'download.platform.ios',
  any: 'download.platform.any',
};

/** The day of a wire time (`yyyy-MM-dd HH:mm:ss`). */
const dayOf = (time: string) => time.slice(0, 10);

/** The checksum, in full (people compare it by eye or paste it), with a button to copy it. */
function Checksum({ name, version }: { name: string; version: PublicPackageVersion }) {
  const { t } = useLocaleText();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(version.sha256);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the text stays there to select.
      setCopied(false);
    }
  };
  return (
    <span className="download-site-checksum">
      <code className="download-site-checksum__value">{version.sha256}</code>
      <button
        type="button"
        className="button button--small"
        aria-label={t('download.copyChecksum', { name, version: version.version })}
        onClick={() => void copy()}
      >
        {copied ? t('download.copied') : t('download.copy')}
      </button>
    </span>
  );
}

function Facts({ name, version }: { name: string; version: PublicPackageVersion }) {
  const { t } = useLocaleText();
  return (
    <dl className="download-site-facts">
      <div>
        <dt>{t('download.version')}</dt>
        <dd>{version.version}</dd>
      </div>
      <div>
        <dt>{t('download.size')}</dt>
        <dd>{formatFileSize(version.size)}</dd>
      </div>
      <div>
        <dt>{t('download.published')}</dt>
        <dd>
          <time dateTime={dayOf(version.createTime)}>{dayOf(version.createTime)}</time>
        </dd>
      </div>
      <div className="download-site-facts__wide">
        <dt>{t('download.sha256')}</dt>
        <dd>
          <Checksum name={name} version={version} />
        </dd>
      </div>
    </dl>
  );
}

/** A plain link: the browser downloads it (the server answers it as an attachment), resuming with ranges. */
function DownloadLink({ name, version, primary }: { name: string; version: PublicPackageVersion; primary?: boolean }) {
  const { t } = useLocaleText();
  return (
    <a
      className={`button${primary ? ' button--primary' : ' button--small'}`}
      href={apiUrl(version.url)}
      download={version.fileName}
      aria-label={t('download.downloadVersion', { name, version: version.version })}
    >
      {t('download.download')}
    </a>
  );
}

function PackageCard({ item }: { item: PublicPackage }) {
  const { t } = useLocaleText();
  const { name, latest, older } = item;
  const headingId = `package-${latest.id}`;
  return (
    <li className="site-card download-site-package" aria-labelledby={headingId}>
      <div className="download-site-package__head">
        <h2 id={headingId} className="download-site-package__title">
          {name}
        </h2>
        <SiteTag tone="primary">{t(PLATFORM[item.platform])}</SiteTag>
      </div>
      <p className="download-site-package__file site-muted">{latest.fileName}</p>
      <Facts name={name} version={latest} />
      {latest.releaseNotes !== '' && (
        <div className="download-site-notes">
          <h3 className="download-site-notes__title">{t('download.notes')}</h3>
          <p>{latest.releaseNotes}</p>
        </div>
      )}
      <DownloadLink name={name} version={latest} primary />
      {older.length > 0 && (
        <details className="download-site-older">
          <summary>{t('download.older', { count: older.length })}</summary>
          <ul className="download-site-older__list">
            {older.map((version) => (
              <li key={version.id} className="download-site-older__item">
                <Facts name={name} version={version} />
                {version.releaseNotes !== '' && <p className="download-site-older__notes">{version.releaseNotes}</p>}
                <DownloadLink name={name} version={version} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/**
 * Public (SPEC §2 `/download`, no login): the installation media staff publish — each package
 * (a name on a platform) with its latest version's size, date and SHA-256, the older versions
 * behind a toggle. Nothing published yet: someone signed in is offered the way back home (which
 * leads staff on to the back office), anyone else the login; without a session the shell shows
 * no search or avatar menu.
 */
export function DownloadPage() {
  const { t } = useLocaleText();
  const signedIn = useUserStore((state) => state.token !== undefined);
  useDocumentTitle(t('route.download'));
  const packages = useSiteData<PublicPackage[]>(PUBLIC_DOWNLOADS_PATH);

  let content;
  if (packages.loading) content = <LoadingSkeleton lines={6} />;
  else if (packages.data === undefined) content = <ErrorState error={packages.error} onRetry={packages.reload} />;
  else if (packages.data.length === 0) {
    content = (
      <EmptyState
        title={t('download.empty')}
        text={t('download.text')}
        action={
          signedIn ? (
            <Link className="button button--primary" to="/home">
              {t('page.backHome')}
            </Link>
          ) : (
            <Link className="button button--primary" to="/login">
              {t('download.login')}
            </Link>
          )
        }
      />
    );
  } else {
    content = (
      <ul className="download-site-list">
        {packages.data.map((item) => (
          <PackageCard key={`${item.name}\u0000${item.platform}`} item={item} />
        ))}
      </ul>
    );
  }

  return (
    <SiteShell>
      <div className="download-site-page" aria-busy={packages.loading}>
        <h1 className="site-page-title">{t('download.title')}</h1>
        <p className="site-muted">{t('download.intro')}</p>
        {content}
      </div>
    </SiteShell>
  );
}
