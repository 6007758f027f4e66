import { apiUrl } from '../../lib/http-client';

/** The server's own OpenAPI UI, framed so it opens as a tab of the back office. */
export default function SwaggerPage() {
  return <iframe className="swagger-page" title="Swagger UI" src={apiUrl('swagger-ui.html')} />;
}
